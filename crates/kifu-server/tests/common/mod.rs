//! A server in the test's own runtime.
#![allow(dead_code)]

use std::io::{ErrorKind, Read};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use kifu_server::{ConnLimits, Limits, Server};
use kifu_store::Store;

/// A server on 127.0.0.1 port 0 in its own runtime, stopped by the guard.
pub struct Running {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
    _dir: tempfile::TempDir,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

pub fn start(store: Option<(tempfile::TempDir, Arc<Store>)>, conn: ConnLimits) -> Running {
    start_with(store, Limits::default(), conn)
}

pub fn start_with(
    store: Option<(tempfile::TempDir, Arc<Store>)>,
    limits: Limits,
    conn: ConnLimits,
) -> Running {
    start_server(store, move |store| {
        Server::new(store, limits).unwrap().with_conn_limits(conn)
    })
}

/// A server that `make` builds over the store, on 127.0.0.1 port 0.
pub fn start_server(
    store: Option<(tempfile::TempDir, Arc<Store>)>,
    make: impl FnOnce(Arc<Store>) -> Server + Send + 'static,
) -> Running {
    let (dir, store) = store.unwrap_or_else(|| {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(Store::open(dir.path()).unwrap());
        (dir, store)
    });
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let (listener, addr) = kifu_server::bind("127.0.0.1:0".parse().unwrap())
                .await
                .unwrap();
            let server = make(store);
            addr_tx.send(addr).unwrap();
            server
                .run(listener, async move {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
        });
    });
    let addr = addr_rx.recv_timeout(Duration::from_secs(30)).unwrap();
    Running {
        addr,
        stop: Some(stop),
        thread: Some(thread),
        _dir: dir,
    }
}

/// Reads until the peer closes (bounded by `limit`); what was read.
pub fn read_to_close(s: &mut TcpStream, limit: Duration) -> Result<Vec<u8>, std::io::Error> {
    s.set_read_timeout(Some(limit))?;
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return Ok(out),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => return Ok(out),
            Err(e) => return Err(e),
        }
    }
}

/// The value of `name` in the server's `/metrics` (at `url`).
pub fn metric(url: &str, name: &str) -> u64 {
    let text = ureq::get(&format!("{url}/metrics"))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("{name} not in /metrics"))
}
