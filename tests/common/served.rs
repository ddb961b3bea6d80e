//! A `kifu serve` started by a test on 127.0.0.1 port 0 and stopped by its
//! pid. The address is the first line the server prints; every wait (for
//! that line, for the exit) is bounded in time, and a server still running
//! when its value is dropped (a test that failed midway) is stopped too.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Longest wait for the server to print its address, or to exit.
pub const SERVER_WAIT: Duration = Duration::from_secs(30);

/// A running `kifu serve`.
pub struct Served {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// What the server wrote on standard error so far.
    stderr: Arc<Mutex<String>>,
    /// What the server wrote on standard output so far.
    stdout: Arc<Mutex<String>>,
}

impl Served {
    /// Starts `kifu --data DATA serve --listen 127.0.0.1:0 EXTRA...` and
    /// waits (at most [`SERVER_WAIT`]) for its address.
    pub fn start(data: &Path, extra: &[&str]) -> Served {
        Served::start_at(data, "127.0.0.1:0", extra)
    }

    /// Like [`Served::start`] on the address `listen` (a server started
    /// again on the port a page already talks to).
    pub fn start_at(data: &Path, listen: &str, extra: &[&str]) -> Served {
        let mut child = super::kifu()
            .arg("--data")
            .arg(data)
            .args(["serve", "--listen", listen])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kifu serve starts");
        // Both pipes are drained for the server's whole life, so that it
        // never blocks on a full pipe nor dies writing to a closed one.
        let stderr = Arc::new(Mutex::new(String::new()));
        if let Some(mut e) = child.stderr.take() {
            let sink = Arc::clone(&stderr);
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = e.read(&mut buf) {
                    if n == 0 {
                        return;
                    }
                    if let Ok(mut s) = sink.lock() {
                        s.push_str(&String::from_utf8_lossy(&buf[..n]));
                    }
                }
            });
        }
        let (tx, rx) = mpsc::channel();
        let stdout = child.stdout.take().expect("stdout");
        let said = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&said);
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if let Ok(mut s) = sink.lock() {
                    s.push_str(&line);
                    s.push('\n');
                }
                if !sent {
                    if let Some(url) = line.trim().strip_prefix("listening on ") {
                        let _ = tx.send(url.to_string());
                        sent = true;
                    }
                }
            }
        });
        let mut served = Served {
            child,
            url: String::new(),
            stderr,
            stdout: said,
        };
        match rx.recv_timeout(SERVER_WAIT) {
            Ok(url) => served.url = url,
            Err(_) => {
                let _ = served.child.kill();
                let _ = served.child.wait();
                // The reader threads end with the process; a short pause
                // lets the last of stderr arrive for the message.
                std::thread::sleep(Duration::from_millis(100));
                panic!(
                    "kifu serve did not print its address within {SERVER_WAIT:?}: {}",
                    served.stderr()
                );
            }
        }
        served
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// What the server wrote on standard output so far.
    pub fn stdout(&self) -> String {
        self.stdout.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// What the server wrote on standard error so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Sends a signal (`-TERM`, `-KILL`, ...) to the server by pid.
    pub fn signal(&self, sig: &str) {
        let st = Command::new("kill")
            .args([sig, &self.pid().to_string()])
            .status()
            .expect("kill runs");
        assert!(st.success(), "kill {sig} {}", self.pid());
    }

    /// SIGTERM, and the exit status (the wait is bounded).
    pub fn terminate(mut self) -> ExitStatus {
        self.signal("-TERM");
        match wait_bounded(&mut self.child, SERVER_WAIT) {
            Some(st) => st,
            None => panic!(
                "the server did not stop within {SERVER_WAIT:?}: {}",
                self.stderr()
            ),
        }
    }

    /// SIGTERM, and asserts a clean exit.
    pub fn stop(self) {
        let err = self.stderr.clone();
        let st = self.terminate();
        let err = err.lock().map(|s| s.clone()).unwrap_or_default();
        assert!(st.success(), "kifu serve exited with {st}: {err}");
    }

    /// SIGKILL, and waits for the process to be gone.
    pub fn kill(mut self) {
        self.child.kill().expect("kill");
        let _ = self.child.wait();
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = Command::new("kill")
                .args(["-TERM", &self.child.id().to_string()])
                .status();
            wait_bounded(&mut self.child, SERVER_WAIT);
        }
    }
}

/// Waits at most `limit` for `child` to exit: its status, or `None` after
/// killing it when it did not.
pub fn wait_bounded(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Ok(Some(st)) = child.try_wait() {
            return Some(st);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}
