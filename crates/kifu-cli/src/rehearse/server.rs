//! The server a rehearsal starts for itself: `kifu serve` on the data
//! directory, on a free loopback port, killed (SIGKILL) and started again
//! on the same address when `--kill-server` asks, with what it cost the
//! machine read from `/proc`.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `kifu serve` this process runs.
pub struct OwnServer {
    child: Child,
    data: PathBuf,
    listen: String,
    /// Arguments of `kifu serve` beyond the rehearsal's own (`--nats ...`).
    extra: Vec<String>,
    /// Its base URL.
    pub url: String,
    /// CPU seconds of the servers killed before this one.
    cpu_before: f64,
    /// The largest resident set of any of them, in KiB.
    peak_kib: u64,
    /// Times it was killed.
    pub kills: u32,
    /// The time each restart took until it answered.
    pub restarts: Vec<Duration>,
}

/// What the server cost: CPU seconds (user and system) and peak RSS.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Usage {
    /// CPU seconds, every server process of the rehearsal together.
    pub cpu_s: f64,
    /// The largest resident set, in MiB.
    pub peak_rss_mib: f64,
    /// Times it was killed and started again.
    pub kills: u32,
    /// The longest restart until it answered, in ms.
    pub longest_restart_ms: u64,
}

impl OwnServer {
    /// Starts `kifu --data DATA serve --listen 127.0.0.1:0 EXTRA...` and
    /// waits until it says where it listens.
    pub fn start(data: &Path, extra: Vec<String>) -> Result<OwnServer, String> {
        std::fs::create_dir_all(data)
            .map_err(|e| format!("kifu rehearse: {}: {e}", data.display()))?;
        operator_key(data)?;
        let (child, url) = spawn(data, "127.0.0.1:0", &extra)?;
        let listen = url.trim_start_matches("http://").to_string();
        Ok(OwnServer {
            child,
            data: data.to_path_buf(),
            listen,
            extra,
            url,
            cpu_before: 0.0,
            peak_kib: 0,
            kills: 0,
            restarts: Vec::new(),
        })
    }

    /// SIGKILL, then the same server again on the same address.
    pub fn kill_and_restart(&mut self) -> Result<(), String> {
        let (cpu, peak) = usage_of(self.child.id());
        self.cpu_before += cpu;
        self.peak_kib = self.peak_kib.max(peak);
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.kills += 1;
        let began = Instant::now();
        // The address is free again once the old process is gone; a
        // moment's retry covers the kernel's release of the socket.
        let mut last = String::new();
        for _ in 0..50 {
            match spawn(&self.data, &self.listen, &self.extra) {
                Ok((child, _)) => {
                    self.child = child;
                    self.restarts.push(began.elapsed());
                    return Ok(());
                }
                Err(e) => {
                    last = e;
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        }
        Err(format!(
            "kifu rehearse: the server did not start again: {last}"
        ))
    }

    /// CPU and memory so far.
    pub fn usage(&self) -> Usage {
        let (cpu, peak) = usage_of(self.child.id());
        Usage {
            cpu_s: self.cpu_before + cpu,
            peak_rss_mib: self.peak_kib.max(peak) as f64 / 1024.0,
            kills: self.kills,
            longest_restart_ms: self
                .restarts
                .iter()
                .max()
                .map(|d| d.as_millis() as u64)
                .unwrap_or(0),
        }
    }

    /// Stops it (SIGTERM: it finishes what it acknowledged and exits).
    pub fn stop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        for _ in 0..100 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for OwnServer {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.stop();
        }
    }
}

/// The log operator's key of a rehearsal's server, in its data directory:
/// the server signs a checkpoint when asked, so that every game's appeal
/// bundle can be made and checked.
pub const OPERATOR_KEY: &str = "rehearsal-operator.key";

fn operator_key(data: &Path) -> Result<(), String> {
    let path = data.join(OPERATOR_KEY);
    if path.exists() {
        return Ok(());
    }
    let mut seed = [0u8; 32];
    getrandom::getrandom(&mut seed).map_err(|e| format!("kifu rehearse: no randomness: {e}"))?;
    let pem = kifu_ledger::Keypair::from_seed(seed)
        .to_pkcs8_pem()
        .map_err(|e| format!("kifu rehearse: the operator's key: {e}"))?;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)
        .map_err(|e| format!("kifu rehearse: {}: {e}", path.display()))?;
    f.write_all(pem.as_bytes())
        .map_err(|e| format!("kifu rehearse: {}: {e}", path.display()))
}

fn spawn(data: &Path, listen: &str, extra: &[String]) -> Result<(Child, String), String> {
    let exe = std::env::current_exe().map_err(|e| format!("kifu rehearse: this program: {e}"))?;
    let mut child = Command::new(exe)
        .arg("--data")
        .arg(data)
        .args([
            "serve",
            "--listen",
            listen,
            "--checkpoint-every",
            "0",
            "--checkpoint-key",
        ])
        .arg(data.join(OPERATOR_KEY))
        // Every tablet, console and spectator of the rehearsal comes from
        // this one address; at a venue each has its own.
        .args([
            "--max-device-requests-per-client",
            "100000",
            "--max-connections-per-client",
            "100000",
            "--max-connections",
            "100000",
            "--max-streams-per-client",
            "100000",
            "--max-streams",
            "100000",
            "--max-bodies-per-client",
            "100000",
            "--max-bodies",
            "100000",
        ])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("kifu rehearse: starting kifu serve: {e}"))?;
    let Some(out) = child.stdout.take() else {
        return Err("kifu rehearse: kifu serve's output".into());
    };
    let mut lines = BufReader::new(out).lines();
    loop {
        match lines.next() {
            Some(Ok(line)) => {
                if let Some(url) = line.trim().strip_prefix("listening on ") {
                    let url = url.trim().to_string();
                    // Keep reading its output so that it never blocks on a
                    // full pipe.
                    std::thread::spawn(move || for _ in lines.by_ref() {});
                    return Ok((child, url));
                }
            }
            _ => {
                let status = child.wait().ok();
                return Err(format!("kifu serve stopped before listening ({status:?})"));
            }
        }
    }
}

/// CPU seconds and peak RSS (KiB) of process `pid`, from `/proc` (zero
/// where there is none).
fn usage_of(pid: u32) -> (f64, u64) {
    let ticks = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            let after = s.rsplit_once(')')?.1;
            let f: Vec<&str> = after.split_whitespace().collect();
            // Fields 14 and 15 of stat(5), counted after the name.
            let u: u64 = f.get(11)?.parse().ok()?;
            let s: u64 = f.get(12)?.parse().ok()?;
            Some(u + s)
        })
        .unwrap_or(0);
    // /proc counts in USER_HZ, 100 a second on every Linux ABI.
    let hz = 100.0;
    let peak = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0);
    (ticks as f64 / hz, peak)
}
