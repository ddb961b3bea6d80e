//! The NATS JetStream cluster a rehearsal starts for its server
//! (`--nats-cluster N`): `nats-server` nodes on free loopback ports, a data
//! directory each under the rehearsal's own, the stream's leader stopped
//! (SIGKILL) midway through each round with `--kill-nats` and started again
//! when the round ends. At the end the stream is read back from its start,
//! every record verified as `kifu mirror` verifies it
//! ([`kifu_nats::consumer::FeedConsumer`]), and reconciled with the store:
//! a record the store holds that the stream lacks is lost, a record the
//! stream holds twice is duplicated.

use std::collections::{HashMap, HashSet};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use kifu_ledger::Hash;
use kifu_nats::consumer::{ConsumerConfig, FeedConsumer, Filter, Start};
use serde::Serialize;

/// One `nats-server` of the cluster.
struct Node {
    port: u16,
    cluster_port: u16,
    dir: PathBuf,
    child: Option<Child>,
}

/// A JetStream cluster (a single server when `N` is 1) this process runs.
pub struct NatsCluster {
    bin: PathBuf,
    nodes: Vec<Node>,
    routes: String,
    /// The node stopped now, if any.
    stopped: Option<usize>,
    /// Times a node was stopped.
    pub stops: u32,
}

/// The `nats-server` program: on the `PATH`, or where Debian puts it.
fn nats_server() -> Result<PathBuf, String> {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("nats-server"))
            .find(|p| p.exists())
    });
    on_path
        .or_else(|| {
            ["/usr/sbin/nats-server", "/usr/bin/nats-server"]
                .iter()
                .map(PathBuf::from)
                .find(|p| p.exists())
        })
        .ok_or_else(|| {
            "kifu rehearse: --nats-cluster needs nats-server (Debian: apt-get install nats-server)"
                .to_string()
        })
}

fn free_port() -> Result<u16, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("kifu rehearse: a loopback port: {e}"))
}

impl NatsCluster {
    /// Starts `n` JetStream nodes under `dir` and waits (at most 20 s each)
    /// until they accept connections.
    pub fn start(dir: &Path, n: usize) -> Result<NatsCluster, String> {
        let bin = nats_server()?;
        let mut nodes = Vec::with_capacity(n);
        for i in 0..n {
            nodes.push(Node {
                port: free_port()?,
                cluster_port: free_port()?,
                dir: dir.join(format!("nats-n{i}")),
                child: None,
            });
        }
        let routes = nodes
            .iter()
            .map(|nd| format!("nats://127.0.0.1:{}", nd.cluster_port))
            .collect::<Vec<_>>()
            .join(",");
        let mut c = NatsCluster {
            bin,
            nodes,
            routes,
            stopped: None,
            stops: 0,
        };
        for i in 0..n {
            c.spawn(i)?;
        }
        for i in 0..n {
            c.wait(i)?;
        }
        Ok(c)
    }

    /// The URLs a client is given: every node, comma-separated.
    pub fn urls(&self) -> String {
        self.nodes
            .iter()
            .map(|nd| format!("nats://127.0.0.1:{}", nd.port))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The stream's replicas: 3 on three nodes or more (a node may be lost),
    /// else 1.
    pub fn replicas(&self) -> usize {
        if self.nodes.len() >= 3 {
            3
        } else {
            1
        }
    }

    fn spawn(&mut self, i: usize) -> Result<(), String> {
        let clustered = self.nodes.len() > 1;
        let nd = &mut self.nodes[i];
        std::fs::create_dir_all(&nd.dir)
            .map_err(|e| format!("kifu rehearse: {}: {e}", nd.dir.display()))?;
        let mut cmd = Command::new(&self.bin);
        cmd.args(["-js", "-a", "127.0.0.1", "-p", &nd.port.to_string(), "-n"])
            .arg(format!("n{i}"))
            .arg("-sd")
            .arg(&nd.dir);
        if clustered {
            cmd.args(["--cluster_name", "kifu-rehearsal", "--cluster"])
                .arg(format!("nats://127.0.0.1:{}", nd.cluster_port))
                .arg("--routes")
                .arg(&self.routes);
        }
        let child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("kifu rehearse: starting nats-server: {e}"))?;
        nd.child = Some(child);
        Ok(())
    }

    fn wait(&self, i: usize) -> Result<(), String> {
        let began = Instant::now();
        while began.elapsed() < Duration::from_secs(20) {
            if TcpStream::connect(("127.0.0.1", self.nodes[i].port)).is_ok() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Err(format!(
            "kifu rehearse: nats-server node n{i} did not start in 20 s"
        ))
    }

    /// Stops (SIGKILL) the node leading the stream, or the last node when
    /// no leader is known; which one, by name.
    pub fn stop_leader(&mut self) -> Option<String> {
        if self.nodes.len() < 3 || self.stopped.is_some() {
            return None;
        }
        let leader = runtime().ok().and_then(|rt| {
            rt.block_on(kifu_nats::stream_state(
                &self.urls(),
                kifu_nats::DEFAULT_STREAM,
            ))
            .ok()
            .and_then(|s| s.leader)
        });
        let i = leader
            .as_deref()
            .and_then(|l| l.strip_prefix('n')?.parse::<usize>().ok())
            .filter(|i| *i < self.nodes.len())
            .unwrap_or(self.nodes.len() - 1);
        if let Some(mut c) = self.nodes[i].child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        self.stopped = Some(i);
        self.stops += 1;
        Some(format!("n{i}"))
    }

    /// Starts the stopped node again on its ports and data directory.
    pub fn restart(&mut self) -> Result<(), String> {
        let Some(i) = self.stopped.take() else {
            return Ok(());
        };
        self.spawn(i)?;
        self.wait(i)
    }
}

impl NatsCluster {
    /// Stops (SIGKILL) every node and waits for it.
    pub fn stop(&mut self) {
        for nd in &mut self.nodes {
            if let Some(mut c) = nd.child.take() {
                let _ = c.kill();
                let _ = c.wait();
            }
        }
    }
}

impl Drop for NatsCluster {
    fn drop(&mut self) {
        self.stop();
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("kifu rehearse: a runtime: {e}"))
}

/// The stream read back and reconciled with the store.
#[derive(Debug, Clone, Default, Serialize)]
pub struct StreamCheck {
    /// Messages in the stream at the end.
    pub messages: u64,
    /// Records read from it, each verified (chain link, signature, role).
    pub read: u64,
    /// Records of the rehearsal's games in the store, not in the stream.
    pub lost: u64,
    /// Messages beyond the records they carry: a record published twice.
    pub duplicated: u64,
    /// Times a node of the cluster was stopped.
    pub node_stops: u32,
}

/// Reads the whole stream at `urls` from its start and reconciles it with
/// `chains` (each game's record hashes as the store holds them). Waits, at
/// most `limit`, for the stream to hold every record of them (the server
/// publishes after it acknowledges).
pub fn reconcile_stream(
    urls: &str,
    chains: &HashMap<Hash, Vec<Hash>>,
    limit: Duration,
) -> Result<StreamCheck, String> {
    let rt = runtime()?;
    let began = Instant::now();
    loop {
        let (messages, seen) = rt.block_on(read_stream(urls))?;
        let check = stream_check(messages, &seen, chains);
        if check.lost == 0 || began.elapsed() >= limit {
            return Ok(check);
        }
        std::thread::sleep(Duration::from_secs(1));
    }
}

/// The reconciliation itself: what the store holds against what was read.
pub fn stream_check(
    messages: u64,
    seen: &HashSet<Hash>,
    chains: &HashMap<Hash, Vec<Hash>>,
) -> StreamCheck {
    StreamCheck {
        messages,
        read: seen.len() as u64,
        lost: chains
            .values()
            .flatten()
            .filter(|h| !seen.contains(*h))
            .count() as u64,
        duplicated: messages.saturating_sub(seen.len() as u64),
        node_stops: 0,
    }
}

/// The stream's message count and the hash of every record read from it.
async fn read_stream(urls: &str) -> Result<(u64, HashSet<Hash>), String> {
    let state = kifu_nats::stream_state(urls, kifu_nats::DEFAULT_STREAM)
        .await
        .map_err(|e| format!("kifu rehearse: the stream: {e}"))?;
    let mut consumer = FeedConsumer::connect(&ConsumerConfig {
        url: urls.to_string(),
        stream: kifu_nats::DEFAULT_STREAM.to_string(),
        filter: Filter::All,
        start: Start::FromStart,
    })
    .await
    .map_err(|e| format!("kifu rehearse: reading the stream: {e}"))?;
    let mut seen = HashSet::new();
    while let Some(d) = consumer
        .next_until_caught_up()
        .await
        .map_err(|e| format!("kifu rehearse: reading the stream: {e}"))?
    {
        seen.insert(d.record.hash());
    }
    Ok((state.messages, seen))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(b: u8) -> Hash {
        [b; 32]
    }

    #[test]
    fn a_record_the_stream_lacks_is_lost_and_one_it_holds_twice_is_duplicated() {
        let chains = HashMap::from([(h(1), vec![h(1), h(2), h(3)]), (h(9), vec![h(9)])]);
        let all: HashSet<Hash> = [h(1), h(2), h(3), h(9)].into();
        let c = stream_check(4, &all, &chains);
        assert_eq!((c.read, c.lost, c.duplicated), (4, 0, 0));

        let without: HashSet<Hash> = [h(1), h(3), h(9)].into();
        let c = stream_check(3, &without, &chains);
        assert_eq!((c.lost, c.duplicated), (1, 0));

        let c = stream_check(5, &all, &chains);
        assert_eq!((c.lost, c.duplicated), (0, 1));
    }
}
