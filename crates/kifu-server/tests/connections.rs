//! Connection limits: a client that dribbles a request head is
//! disconnected, and no more than the bound of connections is served at
//! once.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use kifu_server::{ConnLimits, Limits, Server};
use kifu_store::Store;

/// A server on 127.0.0.1 port 0 in its own runtime, stopped by the guard.
struct Running {
    addr: SocketAddr,
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

fn start(conn: ConnLimits) -> Running {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open(dir.path()).unwrap());
    let sgf: kifu_server::SgfExport = Arc::new(|_: &[kifu_ledger::Record]| Err("none".into()));
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
            let server = Server::new(store, Limits::default(), sgf)
                .unwrap()
                .with_conn_limits(conn);
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
fn read_to_close(s: &mut TcpStream, limit: Duration) -> Result<Vec<u8>, std::io::Error> {
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

#[test]
fn a_client_dribbling_its_headers_is_disconnected() {
    let server = start(ConnLimits {
        max_connections: 64,
        header_read_timeout: Duration::from_millis(300),
    });
    let mut s = TcpStream::connect(server.addr).unwrap();
    // Half a request head, then nothing more.
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: kifu\r\nX-Slow: ")
        .unwrap();
    // The bound of this read is a bound on the test, not a timing assert:
    // without the deadline the read never ends and the test fails here.
    let got = read_to_close(&mut s, Duration::from_secs(20))
        .expect("the server closes a connection whose head never completes");
    let text = String::from_utf8_lossy(&got);
    assert!(!text.contains("200 OK"), "answered anyway: {text}");

    // An idle kept-alive connection is closed too, after its answer.
    let mut k = TcpStream::connect(server.addr).unwrap();
    k.write_all(b"GET /healthz HTTP/1.1\r\nHost: kifu\r\n\r\n")
        .unwrap();
    let got = read_to_close(&mut k, Duration::from_secs(20)).expect("an idle connection is closed");
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 200 OK"), "{text}");
    assert!(text.contains("\"status\":\"ok\""), "{text}");
}

#[test]
fn no_more_connections_than_the_bound_are_served_at_once() {
    let server = start(ConnLimits {
        max_connections: 2,
        header_read_timeout: Duration::from_millis(500),
    });
    // Two connections that send nothing take both slots.
    let mut idle: Vec<TcpStream> = (0..2)
        .map(|_| TcpStream::connect(server.addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(50));
    // A third is accepted by the kernel, but served only once a slot is
    // free: by then the server has closed the idle ones.
    let mut third = TcpStream::connect(server.addr).unwrap();
    third
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: kifu\r\nConnection: close\r\n\r\n")
        .unwrap();
    let got = read_to_close(&mut third, Duration::from_secs(20)).unwrap();
    assert!(String::from_utf8_lossy(&got).starts_with("HTTP/1.1 200 OK"));
    for s in &mut idle {
        s.set_nonblocking(true).unwrap();
        let mut b = [0u8; 16];
        match s.read(&mut b) {
            Ok(0) => {}
            Err(e) if e.kind() == ErrorKind::ConnectionReset => {}
            other => {
                panic!("an idle connection was still open when the third was served: {other:?}")
            }
        }
    }
}
