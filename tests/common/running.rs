//! A long-running `kifu` command started by a test (`publish`, `mirror`,
//! `serve`): its standard output arrives line by line, its standard error
//! is gathered, every wait is bounded, and it is stopped by its process id.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// A running `kifu --data DATA ARGS...`.
pub struct Running {
    child: Child,
    lines: mpsc::Receiver<String>,
    stderr: Arc<Mutex<String>>,
}

impl Running {
    /// Starts `kifu --data DATA ARGS...`.
    pub fn start(data: &Path, args: &[&str]) -> Running {
        let mut child = super::kifu()
            .arg("--data")
            .arg(data)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kifu starts");
        let out = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = stderr.clone();
        let err = child.stderr.take().expect("stderr");
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines() {
                let Ok(line) = line else { break };
                if let Ok(mut s) = sink.lock() {
                    s.push_str(&line);
                    s.push('\n');
                }
            }
        });
        Running {
            child,
            lines,
            stderr,
        }
    }

    /// Waits, at most `limit`, for a line of standard output containing
    /// `want`, and returns it; panics with what the command said on
    /// standard error otherwise.
    pub fn wait_line(&self, want: &str, limit: Duration) -> String {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if l.contains(want) => return l,
                Ok(_) => {}
                Err(_) => panic!(
                    "no line containing '{want}' within {limit:?}; stderr: {}",
                    self.stderr()
                ),
            }
        }
    }

    /// What the command wrote on standard error so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Stops it with SIGTERM (by its process id) and expects a clean exit
    /// within 20 s; SIGKILLs it and panics otherwise.
    pub fn stop(mut self) {
        let _ = std::process::Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status();
        match super::wait_bounded(&mut self.child, Duration::from_secs(20)) {
            Some(status) => assert!(status.success(), "stopped with {status}"),
            None => {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("did not stop on SIGTERM");
            }
        }
    }

    /// SIGKILLs it (by its process id) and reaps it.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        // A test that failed midway leaves nothing running.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
