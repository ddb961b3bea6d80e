//! Starting real `nats-server` processes for tests: loopback ports picked
//! free by the test, a data directory each, stopped by process id.
#![allow(dead_code)]

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The `nats-server` binary, or `None` (with a printed message) when the
/// test should be skipped. Panics when it is absent and
/// `KIFU_REQUIRE_PEERS=1`.
pub fn nats_server(test: &str) -> Option<PathBuf> {
    let candidates = ["/usr/sbin/nats-server", "/usr/bin/nats-server"];
    let found = candidates
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .or_else(|| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|d| d.join("nats-server"))
                    .find(|p| p.exists())
            })
        });
    if found.is_none() {
        if std::env::var("KIFU_REQUIRE_PEERS").as_deref() == Ok("1") {
            panic!("{test}: nats-server is required (KIFU_REQUIRE_PEERS=1) but not installed");
        }
        eprintln!("{test}: skipped: nats-server is not installed (apt-get install nats-server)");
    }
    found
}

/// A free loopback port (bound, read, released).
pub fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    l.local_addr().expect("local address").port()
}

/// Waits until something accepts on `port`, at most `limit`.
pub fn wait_port(port: u16, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// One nats-server process of a cluster.
pub struct Node {
    pub port: u16,
    pub cluster_port: u16,
    pub dir: PathBuf,
    pub child: Option<Child>,
}

/// A JetStream cluster (or a single server) on loopback.
pub struct Cluster {
    pub bin: PathBuf,
    pub nodes: Vec<Node>,
    pub routes: String,
}

impl Cluster {
    /// Starts `n` JetStream nodes under `dir` (a cluster when `n > 1`).
    pub fn start(bin: &Path, dir: &Path, n: usize) -> Cluster {
        let nodes: Vec<Node> = (0..n)
            .map(|i| Node {
                port: free_port(),
                cluster_port: free_port(),
                dir: dir.join(format!("n{i}")),
                child: None,
            })
            .collect();
        let routes = nodes
            .iter()
            .map(|nd| format!("nats://127.0.0.1:{}", nd.cluster_port))
            .collect::<Vec<_>>()
            .join(",");
        let mut c = Cluster {
            bin: bin.to_path_buf(),
            nodes,
            routes,
        };
        for i in 0..n {
            c.spawn(i);
        }
        for i in 0..n {
            assert!(
                wait_port(c.nodes[i].port, Duration::from_secs(20)),
                "nats-server node {i} did not start"
            );
        }
        c
    }

    fn spawn(&mut self, i: usize) {
        let single = self.nodes.len() == 1;
        let nd = &mut self.nodes[i];
        std::fs::create_dir_all(&nd.dir).expect("node dir");
        let mut cmd = Command::new(&self.bin);
        cmd.arg("-js")
            .arg("-a")
            .arg("127.0.0.1")
            .arg("-p")
            .arg(nd.port.to_string())
            .arg("-sd")
            .arg(&nd.dir)
            .arg("-n")
            .arg(format!("n{i}"));
        if !single {
            cmd.arg("--cluster_name")
                .arg("kifu-test")
                .arg("--cluster")
                .arg(format!("nats://127.0.0.1:{}", nd.cluster_port))
                .arg("--routes")
                .arg(&self.routes);
        }
        let log = std::fs::File::create(nd.dir.with_extension("log")).expect("log file");
        let child = cmd
            .stdout(Stdio::null())
            .stderr(Stdio::from(log))
            .spawn()
            .expect("nats-server starts");
        nd.child = Some(child);
    }

    /// SIGKILLs node `i` (by its process id) and reaps it.
    pub fn kill(&mut self, i: usize) {
        if let Some(mut c) = self.nodes[i].child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Starts node `i` again on the same ports and data directory.
    pub fn restart(&mut self, i: usize) {
        self.spawn(i);
        assert!(
            wait_port(self.nodes[i].port, Duration::from_secs(20)),
            "nats-server node {i} did not restart"
        );
    }

    /// The client URLs of every node, comma-separated.
    pub fn urls(&self) -> String {
        self.nodes
            .iter()
            .map(|nd| format!("nats://127.0.0.1:{}", nd.port))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The client URL of node `i`.
    pub fn url(&self, i: usize) -> String {
        format!("nats://127.0.0.1:{}", self.nodes[i].port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for i in 0..self.nodes.len() {
            self.kill(i);
        }
    }
}

/// Runs `f` until it succeeds, at most `attempts` times and for at most
/// `limit` (each attempt bounded by what is left), pausing between
/// attempts. Right after a node restarts, a cluster under load may take
/// seconds to elect the stream's leader again; a client that connects then
/// gets a timeout it should simply retry. Panics with the last error when
/// every attempt failed.
pub async fn retry<T, E, F, Fut>(what: &str, attempts: u32, limit: Duration, mut f: F) -> T
where
    E: std::fmt::Display,
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, E>>,
{
    let start = Instant::now();
    let mut last = String::from("no attempt made");
    for attempt in 1..=attempts.max(1) {
        let left = limit.saturating_sub(start.elapsed());
        if left.is_zero() {
            break;
        }
        match tokio::time::timeout(left, f()).await {
            Ok(Ok(v)) => return v,
            Ok(Err(e)) => last = e.to_string(),
            Err(_) => last = "timed out".into(),
        }
        eprintln!("{what}: attempt {attempt} failed ({last}); retrying");
        let pause = Duration::from_millis(250 * u64::from(attempt)).min(Duration::from_secs(2));
        tokio::time::sleep(pause.min(limit.saturating_sub(start.elapsed()))).await;
    }
    panic!("{what}: {attempts} attempts over {limit:?} failed; last: {last}");
}
