//! A GTP program as a child process: the edge where the referee meets the
//! operating system.
//!
//! The program runs under `sh -c "exec COMMAND"` (so the command line may
//! quote its arguments, and the program itself is the child). One reader
//! thread per pipe: standard output is read line by line into a channel, so
//! every exchange waits with a deadline and a hung program never hangs the
//! server; standard error is copied to a log file beside the record.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::engine::{Engine, EngineFailure};
use crate::gtp::{AnswerReader, Reply};

/// The longest piece of a line kept at once.
const MAX_LINE: u64 = 64 * 1024;

/// How often a wait looks at the interrupt flag.
const POLL: Duration = Duration::from_millis(20);

enum Line {
    Text(String),
    End,
}

/// A running GTP program.
pub struct ProcessEngine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    interrupt: Arc<AtomicBool>,
    stopped: bool,
}

impl ProcessEngine {
    /// Starts `command` with standard error appended to `stderr_log`.
    /// `interrupt` set (by Ctrl-C) ends any wait with
    /// [`EngineFailure::Interrupted`].
    pub fn start(
        command: &str,
        stderr_log: &Path,
        interrupt: Arc<AtomicBool>,
    ) -> Result<ProcessEngine, EngineFailure> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(stderr_log)
            .map_err(|e| EngineFailure::Io(format!("{}: {e}", stderr_log.display())))?;
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            // Its own process group: a Ctrl-C at the terminal reaches the
            // server, which records the interruption and then stops the
            // program, instead of killing the program first (which would
            // look like an abnormal termination).
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineFailure::Io(format!("cannot start `{command}`: {e}")))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| EngineFailure::Io("no standard output".into()))?;
        let stderr = child.stderr.take();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                // A line is read in pieces of at most 64 KiB, so a program
                // printing without end cannot exhaust the server's memory.
                match (&mut r).take(MAX_LINE).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Line::End);
                        return;
                    }
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buf);
                        let line = text.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(Line::Text(line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        if let Some(mut err) = stderr {
            let mut log = log;
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                loop {
                    match err.read(&mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => {
                            if log.write_all(&buf[..n]).is_err() {
                                return;
                            }
                        }
                    }
                }
            });
        }
        Ok(ProcessEngine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            interrupt,
            stopped: false,
        })
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// How the process ended, waiting at most `limit` for it.
    fn exit_status(&mut self, limit: Duration) -> String {
        let until = Instant::now() + limit;
        loop {
            match self.child.try_wait() {
                Ok(Some(s)) => return describe_status(s),
                Ok(None) if Instant::now() < until => std::thread::sleep(POLL),
                Ok(None) => return "output closed, process still running".into(),
                Err(e) => return e.to_string(),
            }
        }
    }
}

fn describe_status(s: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = s.signal() {
            return format!("killed by signal {sig}");
        }
    }
    match s.code() {
        Some(c) => format!("exit status {c}"),
        None => "exited".into(),
    }
}

impl Engine for ProcessEngine {
    fn exchange(&mut self, command: &str, limit: Duration) -> Result<Reply, EngineFailure> {
        if self.stopped {
            return Err(EngineFailure::Exited("stopped by the server".into()));
        }
        // Text printed when no answer was due is not GTP: an answer belongs
        // to the command before it, and a stray line would be taken for the
        // next one.
        loop {
            match self.lines.try_recv() {
                Ok(Line::Text(l)) if l.trim().is_empty() => {}
                Ok(Line::Text(l)) => {
                    return Err(EngineFailure::Broken(format!(
                        "printed {:?} when no answer was due",
                        l.chars().take(80).collect::<String>()
                    )))
                }
                Ok(Line::End) | Err(mpsc::TryRecvError::Disconnected) => {
                    let status = self.exit_status(Duration::from_secs(1));
                    return Err(EngineFailure::Exited(status));
                }
                Err(mpsc::TryRecvError::Empty) => break,
            }
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(EngineFailure::Exited("input closed".into()));
        };
        if let Err(e) = stdin
            .write_all(format!("{command}\n").as_bytes())
            .and_then(|_| stdin.flush())
        {
            let status = self.exit_status(Duration::from_millis(500));
            return Err(EngineFailure::Exited(format!(
                "{status}; write failed: {e}"
            )));
        }
        let started = Instant::now();
        let mut reader = AnswerReader::default();
        loop {
            if self.interrupt.load(Ordering::SeqCst) {
                return Err(EngineFailure::Interrupted);
            }
            let spent = started.elapsed();
            if spent >= limit {
                return Err(EngineFailure::TimedOut(limit));
            }
            match self.lines.recv_timeout((limit - spent).min(POLL)) {
                Ok(Line::Text(l)) => match reader.push(&l) {
                    Ok(Some(reply)) => return Ok(reply),
                    Ok(None) => {}
                    Err(e) => return Err(EngineFailure::Broken(e.to_string())),
                },
                Ok(Line::End) | Err(RecvTimeoutError::Disconnected) => {
                    if self.interrupt.load(Ordering::SeqCst) {
                        return Err(EngineFailure::Interrupted);
                    }
                    let status = self.exit_status(Duration::from_secs(1));
                    return Err(EngineFailure::Exited(status));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    fn stop(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn quit(&mut self, limit: Duration) {
        if !self.stopped {
            let _ = self.exchange("quit", limit);
            self.stdin = None;
            let until = Instant::now() + limit;
            while Instant::now() < until {
                if let Ok(Some(_)) = self.child.try_wait() {
                    break;
                }
                std::thread::sleep(POLL);
            }
        }
        self.stop();
    }
}

impl Drop for ProcessEngine {
    fn drop(&mut self) {
        self.stop();
    }
}
